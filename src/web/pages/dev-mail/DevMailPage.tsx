export function DevMailPage() {
  return <main className="p-8">DevMailPage</main>;
}
