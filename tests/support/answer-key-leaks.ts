import { ASSESSMENT_ANSWER_KEY } from "../../app/features/skills/assessment/answer-key.server";
import { type ChoiceQuestion, choiceQuestions } from "../../app/features/skills/assessment/questions";

/** The property names a question object in questions.ts has; anything else beside a question is suspect. */
const QUESTION_PROPERTIES = new Set([
  "id",
  "type",
  "question",
  "placeholder",
  "autoComplete",
  "options",
  "text",
  "required",
]);

const STRING_LITERAL = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g;

/**
 * Where `text` (a client chunk, a page, a data response) gives away which option is right. It looks for the
 * answer key module itself (its NEC citations survive minification as strings), a `correctAnswer`-like name,
 * the key's mapping serialized, and, around each question that the text carries, anything beside the question's
 * own properties: a property name that questions.ts does not use, or an option letter that appears twice.
 */
export function findAnswerKeyLeaks(text: string): string[] {
  const leaks: string[] = [];
  for (const [id, { basis }] of Object.entries(ASSESSMENT_ANSWER_KEY)) {
    if (text.includes(basis.slice(0, 40))) leaks.push(`the citation of question ${id}'s answer`);
  }
  if (/correct_?answer|answer_?key/i.test(text)) leaks.push("a correctAnswer or answerKey name");
  if (serializedKey().test(text)) leaks.push("the answer key's mapping");
  leaks.push(...leaksBesideQuestions(text));
  return leaks;
}

/** Three consecutive entries of the key, quoted or not, flat or as { answer: ... } objects. */
function serializedKey(): RegExp {
  const entry = (id: string, answer: string) =>
    `["']?${id}["']?\\s*:\\s*(?:\\{\\s*["']?answer["']?\\s*:\\s*)?["']${answer}["']`;
  const entries = Object.entries(ASSESSMENT_ANSWER_KEY).slice(0, 3);
  return new RegExp(entries.map(([id, { answer }]) => entry(id, answer)).join("[\\s\\S]{0,300}?"));
}

/** How many of the questions `text` carries as string literals, so the check around them ran: none proves nothing. */
export function questionsFoundIn(text: string): number {
  return choiceQuestions.filter((question) => text.includes(JSON.stringify(question.question))).length;
}

/**
 * Splits the code around the questions into one stretch per question, from the opening quote of its text to
 * the opening quote of the next one's, so that no stretch starts inside a string. In each, with the strings
 * blanked out, only the question's own property names may appear, and each option letter once.
 */
function leaksBesideQuestions(text: string): string[] {
  const found = choiceQuestions
    .map((question) => ({ question, start: text.indexOf(JSON.stringify(question.question)) }))
    .filter(({ start }) => start >= 0)
    .sort((a, b) => a.start - b.start);
  const leaks: string[] = [];
  for (const [index, { question, start }] of found.entries()) {
    const next = found[index + 1];
    const from = index === 0 ? openingOf(text, start) : start;
    const segment = text.slice(from, next ? next.start : endOfOptions(text, question, start));
    const code = segment.replace(STRING_LITERAL, '""');
    for (const [, name] of code.matchAll(/([A-Za-z_$][\w$]*)\s*:/g)) {
      if (name && !QUESTION_PROPERTIES.has(name)) leaks.push(`a "${name}" property beside question ${question.id}`);
    }
    const letters = (segment.match(STRING_LITERAL) ?? []).filter((literal) => /^["'`][A-D]["'`]$/.test(literal));
    if (new Set(letters).size !== letters.length)
      leaks.push(`an option letter repeated beside question ${question.id}`);
  }
  return leaks;
}

/** Where the first question's object or call opens, so a key written before its text is looked at too. */
function openingOf(text: string, start: number): number {
  return Math.max(text.lastIndexOf("{", start), text.lastIndexOf("(", start), 0);
}

/** Just past the last question's options, where a key given as an extra argument or property would sit. */
function endOfOptions(text: string, question: ChoiceQuestion, start: number): number {
  const lastOption = JSON.stringify(question.options.at(-1)?.text ?? "");
  const at = text.indexOf(lastOption, start);
  if (at < 0) return start;
  const end = at + lastOption.length;
  // Forty characters more, cut before a string that they would open but not close.
  const after = text.slice(end, end + 40);
  const quotes = after.match(/"/g)?.length ?? 0;
  return end + (quotes % 2 === 0 ? after.length : after.lastIndexOf('"'));
}
