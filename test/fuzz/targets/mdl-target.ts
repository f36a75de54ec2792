import { statSync } from 'node:fs';
import { MDL_FORMAT } from '../../../shared/formats/kotor/mdl-document';
import { kotorModelContextPieces } from '../../../shared/formats/kotor/mdl-level-context';
import { MDL_READ_MEMORY, readKotorModel } from '../../../shared/formats/kotor/mdl-reader';
import { checkLevelContextPiece } from '../../../shared/model/level-context';
import { fixtureName, listFixtures, readFixture } from '../../support/fixtures';
import type { CountField, FuzzTarget } from '../fuzz-target';

type Parsed = ReturnType<typeof readKotorModel>;

/**
 * The KotOR binary model reader (shared/formats/kotor/mdl-reader.ts) on the fixture models'
 * MDL files (read without their MDX: PC models keep the positions in the MDL). Accepted
 * inputs must give a consistent tree (each node once, parents before children), structures
 * inside the file, AABB trees naming faces that exist, and level-context pieces whose
 * arrays agree.
 */
export const mdlTarget: FuzzTarget<Parsed> = {
  name: 'mdl',
  description: 'KotOR binary model reader (node tree, trimeshes, walkmesh AABB tree, animations) and its level-context pieces',
  format: MDL_FORMAT,
  memoryFactor: MDL_READ_MEMORY.perInputByte,
  loadCorpus: ({ maxSize, all }) =>
    ['kotor/k1-blackvulkar-models', 'kotor/pykotor-mdl', 'kotor/k1cp-rooms']
      .flatMap((f) => listFixtures(f, ['.mdl']))
      .filter((file) => all || statSync(file).size <= maxSize)
      .map((file) => ({ name: fixtureName(file), bytes: readFixture(file) })),
  parse: (bytes) => readKotorModel(bytes, null, 'fuzz.mdl'),
  /** The array counts the count mutators inflate: names and animations, each node's children, controllers and controller data. */
  countFields(bytes) {
    const model = readKotorModel(bytes, null, 'seed.mdl');
    const fields: CountField[] = [
      { offset: 0xc8, byteWidth: 4, kind: 'names.count' },
      { offset: 0x6c, byteWidth: 4, kind: 'animations.count' },
    ];
    for (const n of model.nodes) {
      fields.push({ offset: n.offset + 48, byteWidth: 4, kind: 'node.children.count' });
      fields.push({ offset: n.offset + 60, byteWidth: 4, kind: 'node.controllers.count' });
      fields.push({ offset: n.offset + 72, byteWidth: 4, kind: 'node.controllerData.count' });
    }
    return fields;
  },
  check(model, bytes) {
    const offsets = new Set<number>();
    for (const n of model.nodes) {
      if (n.index > 0 && !(n.parent >= 0 && n.parent < n.index)) throw new Error(`node ${n.index} has parent ${n.parent}`);
      if (offsets.has(n.offset)) throw new Error(`node at ${n.offset} read twice`);
      offsets.add(n.offset);
      const mesh = n.mesh;
      if (mesh) {
        const nv = mesh.vertices.length / 3;
        for (const v of mesh.faces) if (v >= nv) throw new Error(`node ${n.name}: face vertex ${v} of ${nv}`);
        if (n.aabb) for (const f of n.aabb.face) if (f >= mesh.faces.length / 3) throw new Error(`node ${n.name}: AABB face ${f}`);
      }
    }
    for (const s of model.structures) {
      if (s.file === 'mdl' && (s.offset < 0 || s.offset + s.size > bytes.length)) throw new Error(`${s.kind} at ${s.offset}+${s.size} outside the ${bytes.length}-byte file`);
    }
    for (const p of kotorModelContextPieces(model, { x: 1, y: 2, z: 3 }, 'fuzz')) checkLevelContextPiece(p);
  },
};
