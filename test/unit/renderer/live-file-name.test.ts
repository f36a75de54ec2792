import { describe, expect, it } from 'vitest';
import { liveFileName } from '../../../renderer/src/tools/live-file-name';

describe('liveFileName', () => {
  it('follows the newest edited state, not the one the file was opened in', () => {
    expect(liveFileName('m10aa_05a.wok (edited)', false)).toBe('m10aa_05a.wok');
    expect(liveFileName('m10aa_05a.wok', true)).toBe('m10aa_05a.wok (edited)');
    expect(liveFileName('m10aa_05a.wok (edited)', true)).toBe('m10aa_05a.wok (edited)');
    expect(liveFileName('m10aa_05a.wok', false)).toBe('m10aa_05a.wok');
  });

  it('leaves a loose file (no project state) and names merely containing the words as they are', () => {
    expect(liveFileName('loose.trx (edited)', undefined)).toBe('loose.trx (edited)');
    expect(liveFileName('(edited) plan.nav', false)).toBe('(edited) plan.nav');
  });
});
