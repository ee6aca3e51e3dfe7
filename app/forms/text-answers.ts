/**
 * The answers to `fields`, in their order, each as text: "" where none was given. The fixed shape a webhook or a
 * stored record expects, whichever optional answers were left empty.
 */
export function textAnswers<Name extends string>(
  fields: readonly { name: Name }[],
  answers: Partial<Record<Name, string>>,
): Record<Name, string> {
  return Object.fromEntries(fields.map(({ name }) => [name, answers[name] ?? ""])) as Record<Name, string>;
}
