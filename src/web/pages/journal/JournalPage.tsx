export function JournalPage() {
  return <main className="p-8">JournalPage</main>;
}
