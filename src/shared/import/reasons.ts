import { IMPORT_REASONS, type ImportReason, type ImportReasonCount } from '../import';

const EXAMPLES_KEPT = 3;

/** Why things were left out, counted, with the first few of each as examples. */
export class ReasonCounter {
  protected readonly counts = new Map<ImportReason, ImportReasonCount>();

  add(reason: ImportReason, example: string): void {
    let count = this.counts.get(reason);
    if (!count) this.counts.set(reason, (count = { reason, count: 0, examples: [] }));
    count.count += 1;
    if (count.examples.length < EXAMPLES_KEPT) count.examples.push(example.slice(0, 120));
  }

  list(): ImportReasonCount[] {
    return IMPORT_REASONS.flatMap((reason) => this.counts.get(reason) ?? []);
  }
}

/** How an entry is named in the summary: its day and the start of its title or text. */
export function entryExample(entry: { entryDate: string; title: string | null; content: string }): string {
  const words = (entry.title ?? entry.content).replace(/\s+/g, ' ').trim();
  return words ? `${entry.entryDate} “${words.length > 40 ? `${words.slice(0, 40).trimEnd()}…` : words}”` : entry.entryDate;
}
