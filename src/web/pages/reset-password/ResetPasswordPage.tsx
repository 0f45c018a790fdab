export function ResetPasswordPage() {
  return <main className="p-8">ResetPasswordPage</main>;
}
