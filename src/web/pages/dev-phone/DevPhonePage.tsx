export function DevPhonePage() {
  return <main className="p-8">DevPhonePage</main>;
}
