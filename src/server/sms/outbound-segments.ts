import { SegmentedMessage } from 'sms-segments-calculator';

// Counting segments walks the text grapheme by grapheme, and automated texts repeat: remember a few.
const segmentCounts = new Map<string, number>();

/** How many segments carriers bill for the text. */
export function segmentsOf(body: string): number {
  let count = segmentCounts.get(body);
  if (count === undefined) {
    count = new SegmentedMessage(body).segmentsCount;
    if (segmentCounts.size >= 500) segmentCounts.clear();
    segmentCounts.set(body, count);
  }
  return count;
}
