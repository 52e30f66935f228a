import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';

describe('SERVICE_QUEUE_TOTALS_TRACKING', () => {
  it('is on unless set to false, 0 or no, and refuses anything else by name', () => {
    expect(loadConfig({}).queueTotalsTracking).toBe(true);
    expect(loadConfig({ SERVICE_QUEUE_TOTALS_TRACKING: '' }).queueTotalsTracking).toBe(true);
    expect(loadConfig({ SERVICE_QUEUE_TOTALS_TRACKING: 'true' }).queueTotalsTracking).toBe(true);
    for (const off of ['false', '0', 'no'])
      expect(loadConfig({ SERVICE_QUEUE_TOTALS_TRACKING: off }).queueTotalsTracking).toBe(false);
    expect(() => loadConfig({ SERVICE_QUEUE_TOTALS_TRACKING: 'maybe' })).toThrow(/SERVICE_QUEUE_TOTALS_TRACKING/);
  });
});
