import type { Finding, FindingSeverity, FindingSubject } from './finding';

/**
 * Collects findings with a cap per code, so a file broken everywhere (say every triangle
 * of a 100,000-triangle mesh) gives a readable list: the first `cap` findings of each
 * code, then one line saying how many more there were. Messages are built only for the
 * findings that are listed.
 */
export class FindingSink {
  private readonly findings: Finding[] = [];
  private readonly counts = new Map<string, number>();
  private readonly severities = new Map<string, FindingSeverity>();

  constructor(private readonly cap = 100) {}

  error(code: string, subject: FindingSubject | undefined, message: () => string): void {
    this.report('error', code, subject, message);
  }

  warning(code: string, subject: FindingSubject | undefined, message: () => string): void {
    this.report('warning', code, subject, message);
  }

  report(severity: FindingSeverity, code: string, subject: FindingSubject | undefined, message: () => string): void {
    if (!this.admit(severity, code)) return;
    const f: Finding = { severity, code, message: message() };
    if (subject) f.subject = subject;
    this.findings.push(f);
  }

  /** Adds a finding already built (dropped, but counted, past the cap). */
  push(finding: Finding): void {
    if (this.admit(finding.severity, finding.code)) this.findings.push(finding);
  }

  private admit(severity: FindingSeverity, code: string): boolean {
    const n = (this.counts.get(code) ?? 0) + 1;
    this.counts.set(code, n);
    this.severities.set(code, severity);
    return n <= this.cap;
  }

  finish(): Finding[] {
    const out = this.findings.slice();
    for (const [code, n] of this.counts) {
      if (n > this.cap) {
        out.push({ severity: this.severities.get(code)!, code, message: `${n - this.cap} more finding(s) like the ones above (${code}) are not listed; ${n} in all` });
      }
    }
    return out;
  }
}
