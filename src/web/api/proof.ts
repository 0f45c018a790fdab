/**
 * A change that needs a proof of the person (the vault's keys, turning it off, deleting the account)
 * answers 401 PROOF_REQUIRED when the session's last proof is older than five minutes. The client
 * then asks the page's prompt (ConfirmPersonDialog), which asks the person for their password and
 * answers whether they confirmed; the request is then sent once more.
 */
type ProofPrompt = (message: string) => Promise<boolean>;

let prompt: ProofPrompt | null = null;

/** The mounted dialog registers itself; without one, the error stands as the server said it. */
export function setProofPrompt(next: ProofPrompt | null): void {
  prompt = next;
}

export function askForProof(message: string): Promise<boolean> {
  return prompt ? prompt(message) : Promise.resolve(false);
}
