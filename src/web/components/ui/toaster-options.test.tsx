import { act, render } from '@testing-library/react';
import { toast, Toaster } from 'sonner';
import { describe, expect, it } from 'vitest';
import { toasterOptions } from './toaster-options';

describe('toasts', () => {
  it('stack along the bottom edge, away from the headers and dialog titles at the top', async () => {
    const { container } = render(<Toaster {...toasterOptions} />);
    act(() => void toast('Entry created'));
    const stack = await new Promise<Element>((resolve) => {
      const find = () => container.ownerDocument.querySelector('[data-sonner-toaster]');
      const poll = () => (find() ? resolve(find()!) : setTimeout(poll, 10));
      poll();
    });
    expect(stack).toHaveAttribute('data-y-position', 'bottom');
    expect(stack).toHaveAttribute('data-x-position', 'center');
  });
});
