import { nodeFormatEnvironment } from '../../electron/services/node-format-environment';
import { ProjectStore } from '../../electron/services/project/project-store';
import type { FileReport } from '../../shared/formats/file-report';
import { inspectBytes } from '../../shared/formats/inspect-file';

/** What `walkbench validate` reports on a project file's bytes as the project holds them now. */
export function reportOfHeldBytes(project: string, fileId: number): FileReport {
  const s = ProjectStore.open(project);
  try {
    const f = s.fileById(fileId)!;
    return inspectBytes(f.name, s.loadCurrentBytes(f), nodeFormatEnvironment);
  } finally {
    s.close();
  }
}
