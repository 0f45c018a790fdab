/** What the journeys' transcription service hears in a note of any length but 6 or 8 seconds. */
export declare const CRICKETS: string;
/** What it hears in a note of about 6 seconds. */
export declare const FOGHORN: string;
