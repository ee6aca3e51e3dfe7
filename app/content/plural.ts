/** A count with its noun in the right number: "1 text", "3 texts". */
export const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
