/**
 * Sorts a schema's issues into a form check's messages: the first issue of each field the form
 * has, in the form's own words (`describe`), and the schema's text of the others, shown above the
 * form. Messages already in `errors` (rules checked before the schema) stay.
 */
export function placeIssues<Field extends string, Issue extends { path: PropertyKey[]; message: string }>(
  issues: readonly Issue[],
  fieldOf: (path: PropertyKey[]) => Field | null | undefined,
  describe: (field: Field, issue: Issue) => string,
  errors: Partial<Record<Field, string>> = {},
): { errors: Partial<Record<Field, string>>; unplaced: string[] } {
  const unplaced: string[] = [];
  for (const issue of issues) {
    const field = fieldOf(issue.path);
    if (field) errors[field] ??= describe(field, issue);
    else unplaced.push(issue.message);
  }
  return { errors, unplaced };
}

/** The form's field of an issue's path, looked up by the path's first key (the API's field name) in `fields`. */
export function byFirstKey<Field>(fields: Readonly<Record<string, Field>>) {
  return (path: PropertyKey[]): Field | undefined => fields[String(path[0] ?? '')];
}
