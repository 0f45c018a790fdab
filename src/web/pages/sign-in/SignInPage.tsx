export function SignInPage() {
  return <main className="p-8">SignInPage</main>;
}
