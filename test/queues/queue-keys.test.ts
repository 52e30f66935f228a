import { describe, expect, it } from 'vitest';
import { escapeGlob } from '../../server/bullmq/glob.js';
import { hashTag } from '../../server/bullmq/pipelined.js';
import { queueRefFromMetaKey } from '../../server/bullmq/queue-key.js';

/** Queue names from store keys: meta keys, glob escaping of a prefix, Redis Cluster hash tags. */
describe('queue keys', () => {
  it('derives names with ":" from meta keys and ignores other keys', () => {
    expect(queueRefFromMetaKey('bull', 'bull:a:b:meta')).toEqual({ prefix: 'bull', name: 'a:b' });
    expect(queueRefFromMetaKey('{bull}', '{bull}:mail:meta')).toEqual({ prefix: '{bull}', name: 'mail' });
    expect(queueRefFromMetaKey('bull', 'bull::meta')).toBeUndefined();
    expect(queueRefFromMetaKey('bull', 'bullx:q:meta')).toBeUndefined();
  });

  it('escapes glob characters of a prefix', () => {
    expect(escapeGlob('a*b?[c]\\d')).toBe('a\\*b\\?\\[c\\]\\\\d');
  });

  it('finds the hash tag Redis Cluster routes by', () => {
    expect(hashTag('{bull}:q:wait')).toBe('bull');
    expect(hashTag('bull:{q}:wait')).toBe('q');
    expect(hashTag('bull:{}:wait')).toBe('bull:{}:wait');
    expect(hashTag('bull:q:wait')).toBe('bull:q:wait');
  });
});
