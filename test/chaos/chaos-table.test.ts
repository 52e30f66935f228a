import { describe, expect, it } from 'vitest';
import { formatChaosTable } from './support/chaos-global.js';

describe('the chaos table', () => {
  it('prints one aligned line per scenario and marks what did not hold', () => {
    const table = formatChaosTable([
      { scenario: 'SIGKILL mid-move', expected: '0 lost, 0 doubled', observed: '0 lost, 0 doubled', held: true },
      { scenario: 'full Redis', expected: '503', observed: '500', held: false },
    ]);
    const lines = table.split('\n');
    expect(lines[0]).toMatch(/^scenario\s+\| expected\s+\| observed\s+\| held$/);
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatch(/\| NO\s*$/);
    expect(new Set(lines.map((line) => line.length)).size).toBe(1);
  });
});
