import path from 'node:path';
import { isMalformedInputError } from '../../../shared/binary/malformed-input-error';
import { extensionOf, handlerForExtension } from '../../../shared/formats/format-registry';
import { loadDocument } from '../../../shared/formats/inspect-file';
import { readObj } from '../../../shared/formats/obj/obj-reader';
import { writeObj } from '../../../shared/formats/obj/obj-writer';
import { ModelMappingError } from '../../../shared/model/model-mapping-error';
import type { Walkmesh } from '../../../shared/model/walkmesh';
import { readBytes, readText, writeFileAtomic } from '../../services/file-access';
import { nodeFormatEnvironment as env } from '../../services/node-format-environment';
import { ExitCode, parseArgs, UsageError, type CliIo } from '../cli-io';
import { expectedErrorMessage } from '../expected-errors';
import { terminalText as t } from '../terminal-text';

export const convertUsage =
  'walkbench convert IN OUT [--base ORIGINAL] [--json]   convert by extension (a walkmesh file ↔ .obj); --base keeps the data OBJ cannot hold';

export async function convertCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, ['base'], ['json']);
  if (args.positional.length !== 2) throw new UsageError('convert needs exactly IN and OUT');
  const [input, output] = args.positional as [string, string];
  const base = args.flags.get('base');
  const json = args.flags.has('json');
  try {
    const written = await convert(input, output, typeof base === 'string' ? base : undefined);
    if (json) io.out(`${JSON.stringify([{ file: input, output, format: written.format, ok: true, written: written.files }], null, 2)}\n`);
    else io.out(`${t(input)} → ${written.files.map(t).join(', ')}\n`);
    return ExitCode.ok;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const message = expectedErrorMessage(e);
    if (message === undefined) throw e;
    io.err(`walkbench: ${t(message)}\n`);
    if (json) io.out(`${JSON.stringify([{ file: input, output, format: null, ok: false, error: message }], null, 2)}\n`);
    return ExitCode.failed;
  }
}

async function convert(input: string, output: string, basePath: string | undefined): Promise<{ format: string; files: string[] }> {
  const outExt = extensionOf(output);
  if (extensionOf(input) === '.obj') {
    const target = handlerForExtension(output);
    if (!target?.fromWalkmeshes) throw new UsageError(`cannot convert .obj to ${outExt || 'a file without extension'}`);
    const baseDoc = basePath !== undefined ? loadDocument(basePath, await readBytes(basePath), env) : undefined;
    if (baseDoc && baseDoc.handler.id !== target.id) throw new UsageError(`--base ${basePath} is ${baseDoc.handler.id}, not ${target.id}`);
    const meshes = readObjFile(await readText(input), input, target.game, target.id);
    checkFinite(meshes, input);
    const doc = fromInput(input, () => target.fromWalkmeshes!(meshes, baseDoc?.document));
    await writeFileAtomic(output, writing(output, target.label, () => target.write(doc, env)));
    return { format: target.id, files: [output] };
  }

  if (basePath !== undefined) throw new UsageError('--base applies only when converting from .obj');
  const { handler, document } = loadDocument(input, await readBytes(input), env);
  const meshes = fromInput(input, () => handler.toWalkmeshes(document, path.basename(input, path.extname(input))));
  if (outExt === '.obj') {
    // OBJ holds decimal numbers: a NaN or an infinite coordinate in the file cannot go there.
    checkFinite(meshes, input);
    const mtlPath = output.replace(/\.obj$/i, '.mtl');
    const { obj, mtl } = writing(output, 'OBJ', () => writeObj(meshes, { mtlFileName: path.basename(mtlPath) }));
    await writeFileAtomic(output, obj);
    await writeFileAtomic(mtlPath, mtl);
    return { format: handler.id, files: [output, mtlPath] };
  }
  if (handler.extensions.includes(outExt)) {
    const doc = handler.fromWalkmeshes ? fromInput(input, () => handler.fromWalkmeshes!(meshes, document)) : document;
    await writeFileAtomic(output, writing(output, handler.label, () => handler.write(doc, env)));
    return { format: handler.id, files: [output] };
  }
  throw new UsageError(`cannot convert ${handler.id} to ${outExt || 'a file without extension'}`);
}

/**
 * Runs a step on the input's content (its walkmeshes, or the document made from them):
 * what the input cannot become (a face naming a missing vertex, a mesh the format cannot
 * hold) is the input's fault, reported naming it.
 */
function fromInput<T>(file: string, step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (isMalformedInputError(e)) throw e.withFile(file);
    if (e instanceof ModelMappingError) throw new ModelMappingError(e.message.startsWith(`${file}:`) ? e.message : `${file}: ${e.message}`);
    throw e;
  }
}

/**
 * Writes the output's bytes in memory. A writer refuses a value its format cannot store
 * (a count past a 16-bit field, a non-finite number…) with a RangeError: that is the
 * input's content not fitting the output format, reported naming the output.
 */
function writing<T>(output: string, format: string, write: () => T): T {
  try {
    return write();
  } catch (e) {
    if (e instanceof RangeError || e instanceof ModelMappingError) throw new ModelMappingError(`${output}: cannot be written as ${format}: ${e.message}`);
    throw e;
  }
}

/** Refuses a walkmesh with a NaN or infinite coordinate, naming the file, the walkmesh and the vertex. */
function checkFinite(meshes: readonly Walkmesh[], file: string): void {
  for (const mesh of meshes) {
    const p = mesh.positions;
    for (let i = 0; i < p.length; i++) {
      if (Number.isFinite(p[i]!)) continue;
      const v = Math.floor(i / 3);
      const xyz = [p[v * 3], p[v * 3 + 1], p[v * 3 + 2]].map(String).join(', ');
      throw new ModelMappingError(`${file}: walkmesh "${mesh.name}" vertex ${v} is (${xyz}): a coordinate is not a finite number; fix or remove the vertex first`);
    }
  }
}

function readObjFile(text: string, file: string, game: Walkmesh['game'], format: string): Walkmesh[] {
  try {
    return readObj(text, { name: path.basename(file, path.extname(file)), game, format });
  } catch (e) {
    throw isMalformedInputError(e) ? e.withFile(file) : e;
  }
}
