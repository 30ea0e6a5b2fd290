//! A labelled input in the shop's field layout: the label, the input, then what belongs
//! below it (a hint, a problem). Every attribute besides these goes to the input.

import type { InputHTMLAttributes, ReactNode } from 'react';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'children'> & {
  id: string;
  label: ReactNode;
  /** More classes of the field around the label and the input. */
  fieldClassName?: string;
  /** Below the input: its hint, its problem. */
  children?: ReactNode;
};

export function InputField({ id, label, fieldClassName, children, ...input }: Props) {
  return (
    <div className={fieldClassName ? `field ${fieldClassName}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input id={id} {...input} />
      {children}
    </div>
  );
}
