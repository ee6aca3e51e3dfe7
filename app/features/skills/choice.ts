/** The letters a multiple-choice option can carry, in order: the keys 1 to 4 pick them too. */
export const OPTION_IDS = ["A", "B", "C", "D"] as const;

export type OptionId = (typeof OPTION_IDS)[number];

export type ChoiceOption = { id: OptionId; text: string };

/** The option a key press picks (A-D or 1-4, either case), when the question has that option. */
export function optionForKey(key: string, options: readonly ChoiceOption[]): OptionId | undefined {
  const digit = Number.parseInt(key, 10);
  const id = key.length === 1 && digit >= 1 && digit <= 4 ? OPTION_IDS[digit - 1] : key.toUpperCase();
  return options.find((option) => option.id === id)?.id;
}
