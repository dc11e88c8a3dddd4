import parse from 'spdx-expression-parse';
import { ACCEPTED, LICENCE_READ_BY_HAND, REFUSED } from './policy.ts';
import type { DependencyTree, LockedPackage, Manifest } from './tree.ts';

export type LicenceVerdict = 'accepted' | 'refused' | 'unknown';

export interface LicenceFinding {
  readonly name: string;
  readonly version: string;
  /** What the package says (its installed package.json, else the lockfile's copy). */
  readonly declared: string | null;
  /** The expression judged: the declared one, or the one read by hand (LICENCE_READ_BY_HAND). */
  readonly licence: string | null;
  readonly verdict: LicenceVerdict;
  readonly reason: string;
}

/** The licence a package.json declares: `license` (a string or the old {type}), or the old `licenses` list as alternatives. */
function declaredIn(manifest: Manifest): string | null {
  if (typeof manifest.license === 'string') return manifest.license;
  if (manifest.license?.type) return manifest.license.type;
  const types = (manifest.licenses ?? []).flatMap((l) => (l.type ? [l.type] : []));
  return types.length > 0 ? types.join(' OR ') : null;
}

/** Whether an SPDX expression may be used: an OR needs one accepted side, an AND both. */
function judge(node: parse.Info): { verdict: LicenceVerdict; reason: string } {
  if ('conjunction' in node) {
    const [left, right] = [judge(node.left), judge(node.right)];
    if (node.conjunction === 'or') return left.verdict === 'accepted' ? left : right.verdict === 'accepted' ? right : left.verdict === 'refused' ? left : right;
    return left.verdict !== 'accepted' ? left : right;
  }
  const id = node.license;
  if (node.exception) return { verdict: 'unknown', reason: `${id} WITH ${node.exception}: an exception the policy does not list` };
  if (ACCEPTED.has(id)) return { verdict: 'accepted', reason: id };
  if (REFUSED.test(id)) return { verdict: 'refused', reason: `${id} is copyleft the project does not accept` };
  return { verdict: 'unknown', reason: `${id} is not in the policy` };
}

/** The licence verdict of one locked package. */
export function licenceOf(pkg: LockedPackage): LicenceFinding {
  const declared = pkg.installed ? declaredIn(pkg.installed) : (pkg.entry.license ?? null);
  const byHand = LICENCE_READ_BY_HAND[`${pkg.name}@${pkg.version}`];
  const licence = byHand?.licence ?? declared;
  const base = { name: pkg.name, version: pkg.version, declared, licence };
  if (!licence) return { ...base, verdict: 'unknown', reason: 'no licence declared' };
  let expression: parse.Info;
  try {
    expression = parse(licence);
  } catch {
    return { ...base, verdict: 'unknown', reason: `"${licence}" is not an SPDX expression (read its LICENSE file, then add it to LICENCE_READ_BY_HAND)` };
  }
  const { verdict, reason } = judge(expression);
  return { ...base, verdict, reason: byHand ? `${reason} (read by hand: ${byHand.why})` : reason };
}

/** Every locked package's licence verdict, and how many packages carry each licence. */
export function checkLicences(tree: DependencyTree): { findings: LicenceFinding[]; failures: LicenceFinding[]; byLicence: Map<string, number> } {
  const findings = tree.packages.map(licenceOf);
  const byLicence = new Map<string, number>();
  for (const finding of findings) byLicence.set(finding.licence ?? '(none)', (byLicence.get(finding.licence ?? '(none)') ?? 0) + 1);
  return { findings, failures: findings.filter((finding) => finding.verdict !== 'accepted'), byLicence };
}
