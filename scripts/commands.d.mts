// Types of commands.mjs for the server's TypeScript tools that bundle it.
import type { OptionSpecs } from './command-line.mjs';

export const COMMANDS: Record<
  'start' | 'reset-root-password' | 'import' | 'backup',
  { options: OptionSpecs; usage: string }
>;
