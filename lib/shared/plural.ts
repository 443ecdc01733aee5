/**
 * A count with its noun, "1 bank", "3 banks": `many` when the plural is not `one` + "s"
 * ("1 entry", "2 entries"). Every count the console, the API's messages and the CLI print goes
 * through here, so none reads "1 templates".
 */
export const plural = (n: number | bigint, one: string, many = `${one}s`): string => `${n} ${Number(n) === 1 ? one : many}`;
