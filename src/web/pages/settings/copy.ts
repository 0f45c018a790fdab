import { messages } from '../../../shared/messages';

/** The settings screen's words, from src/shared/messages.ts. */
export const settingsCopy = messages.settings;
