import { describe, expect, it } from 'vitest';
import { latestSchemaVersion } from '../../../electron/services/project/project-schema';
import { FuzzEngine } from '../../fuzz/fuzz-engine';
import { FuzzStats } from '../../fuzz/fuzz-stats';
import { GENERIC_MUTATORS } from '../../fuzz/mutators';
import { PROJECT_FORMAT, projectTarget } from '../../fuzz/targets/project-target';
import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';

/**
 * A short in-process run of the project-file target (the long run is `npm run fuzz --
 * project`): every mutated project is either refused with a ProjectFileError, which the
 * target turns into a well-formed MalformedInputError after checking the refused file was
 * left byte for byte as it was, or opened as `walkbench project info` opens it and read
 * whole (files, their bytes, the history). The SQLite mutators (files cut at or inside a
 * page, a page zeroed, header fields changed, a tail dropped) each run too.
 */
const corpus = projectTarget.loadCorpus({ maxSize: 700_000, all: false });

describe('project file fuzzing', () => {
  it('builds its seed projects with the real services: small, one file each, with files and history, one of an older schema', () => {
    expect(corpus.length).toBe(3);
    for (const seed of corpus) {
      expect(seed.bytes.length, seed.name).toBeLessThan(1024 * 1024);
      const view = projectTarget.parse(seed.bytes);
      expect(view.info.schemaVersion, seed.name).toBe(latestSchemaVersion);
      expect(view.files.length, seed.name).toBeGreaterThan(0);
      expect(view.bytes.every((b) => b.length > 0), seed.name).toBe(true);
      expect(view.files.some((f) => f.edited), seed.name).toBe(true);
      // Two edits, the second undone: history rows of both kinds, linked to their file.
      expect(view.history.map((h) => h.undone), seed.name).toEqual([false, true]);
      expect(view.history.every((h) => h.files.length === 1), seed.name).toBe(true);
    }
    expect(corpus.filter((s) => /schema version 4/.test(s.name))).toHaveLength(1);
  });

  it('refuses a file cut short as a walkbench-project MalformedInputError', () => {
    const seed = corpus[0]!.bytes;
    let error: unknown;
    try {
      projectTarget.parse(seed.subarray(0, seed.length - 4096));
    } catch (e) {
      error = e;
    }
    expect(isMalformedInputError(error)).toBe(true);
    expect(error).toMatchObject({ format: PROJECT_FORMAT, field: 'header.page_count', offset: 28 });
  });

  it('150 mutated projects give no failure; some are opened and some refused; every mutator kind runs', () => {
    const engine = new FuzzEngine(projectTarget, corpus, 11);
    const stats = new FuzzStats();
    const failures: string[] = [];
    for (let i = 0; i < 150; i++) {
      const f = engine.run(i, stats);
      if (f) failures.push(`${f.kind} at iteration ${f.iteration} (${f.seedInput}, ${f.mutation}): ${f.message}`);
    }
    expect(failures).toEqual([]);
    expect(stats.total('accepted')).toBeGreaterThan(0);
    expect(stats.total('rejected')).toBeGreaterThan(0);
    for (const m of projectTarget.structureMutators ?? []) expect(stats.count(m.name, 'accepted') + stats.count(m.name, 'rejected'), m.name).toBeGreaterThan(0);
    const generic = GENERIC_MUTATORS.reduce((s, m) => s + stats.count(m, 'accepted') + stats.count(m, 'rejected'), 0);
    expect(generic).toBeGreaterThan(0);
  }, 60_000);
});
