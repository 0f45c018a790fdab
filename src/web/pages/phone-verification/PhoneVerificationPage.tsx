export function PhoneVerificationPage() {
  return <main className="p-8">PhoneVerificationPage</main>;
}
