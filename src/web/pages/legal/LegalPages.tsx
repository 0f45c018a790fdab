export function TermsPage() {
  return <main className="p-8">Terms</main>;
}

export function SupportPage() {
  return <main className="p-8">Support</main>;
}
