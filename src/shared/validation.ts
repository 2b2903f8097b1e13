// One place that turns zod's issues into the 422's `errors` (server) and a form's field errors
// (client): each message under its field's dotted path (`lines.0.hours`), JSON and multipart alike.

interface Issue { path: readonly PropertyKey[]; message: string }

/** Messages by dotted field path; an issue about the whole value goes under `whole`. */
export function issuesByField(issues: readonly Issue[], whole = 'body'): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) (errors[issue.path.map(String).join('.') || whole] ??= []).push(issue.message);
  return errors;
}
