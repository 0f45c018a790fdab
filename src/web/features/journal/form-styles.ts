import { inputClasses } from '../../components/ui/Input';
import { cn } from '../../components/ui/cn';

/** The writing surface: serif, roomy, grows with the text up to a point. */
export const entryTextareaClasses = cn(
  inputClasses,
  'min-h-48 resize-y font-serif text-[1.0625rem] leading-7 sm:min-h-56',
);

export const labelClasses = 'block text-sm font-medium text-stone-700';
