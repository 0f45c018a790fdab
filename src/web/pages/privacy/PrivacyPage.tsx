export function PrivacyPage() {
  return <main className="p-8">PrivacyPage</main>;
}
