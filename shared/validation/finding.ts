/**
 * A validation finding: what is wrong, how bad it is, and what it is about, so the
 * findings panel can focus the face or area and the CLI can print one line per finding.
 */
export type FindingSeverity = 'error' | 'warning';

export type FindingSubjectKind = 'file' | 'area' | 'ladder' | 'place' | 'face' | 'tile' | 'triangle' | 'island' | 'room' | 'navmesh' | 'edge';

export interface FindingSubject {
  kind: FindingSubjectKind;
  /** The subject's ID as the format names it (area ID, tile index, face index…). */
  id: number;
}

export interface Finding {
  severity: FindingSeverity;
  /** Stable machine-readable code, e.g. `nav.connection.missing-area`. */
  code: string;
  message: string;
  subject?: FindingSubject;
}

export function error(code: string, message: string, subject?: FindingSubject): Finding {
  return subject ? { severity: 'error', code, message, subject } : { severity: 'error', code, message };
}

export function warning(code: string, message: string, subject?: FindingSubject): Finding {
  return subject ? { severity: 'warning', code, message, subject } : { severity: 'warning', code, message };
}

export function countBySeverity(findings: readonly Finding[]): { errors: number; warnings: number } {
  let errors = 0;
  for (const f of findings) if (f.severity === 'error') errors++;
  return { errors, warnings: findings.length - errors };
}
