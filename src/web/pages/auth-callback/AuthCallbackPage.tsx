export function AuthCallbackPage() {
  return <main className="p-8">AuthCallbackPage</main>;
}
