/**
 * The spec's access rules (its section 6), in one place for the server, which enforces them, and
 * the back office, which only decides what to show with them.
 */

/** A permission set as a rule reads it: its title and codenames. */
export interface PermissionSetRule {
  title: string;
  codenames: readonly string[];
}

/**
 * A role passes when, for every required permission set (by title, found in `sets`), every one of
 * its codenames is among the role's `granted` codenames; so "Manage experiences" includes "View
 * experiences". A title `sets` does not know fails. Nothing required always passes.
 */
export function holdsPermissionSets(granted: ReadonlySet<string>, required: readonly string[], sets: readonly PermissionSetRule[]) {
  return required.every((title) => {
    const set = sets.find((s) => s.title === title);
    return set !== undefined && set.codenames.every((codename) => granted.has(codename));
  });
}

/** The organisation's plan has every required feature. */
export const holdsFeatures = (active: ReadonlySet<string>, required: readonly string[]) => required.every((feature) => active.has(feature));
