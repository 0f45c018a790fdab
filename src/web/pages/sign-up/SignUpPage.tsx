export function SignUpPage() {
  return <main className="p-8">SignUpPage</main>;
}
