import { type WeChatCodeQuery, wechatCodeQuery } from '@one-hub/contracts';
import { type ChangeEvent, useState } from 'react';

/**
 * The code the WeChat official account replies with, as typed into a sign-in or bind dialog:
 * checked on submit (`parse` marks the field invalid and answers null when it is not a code),
 * valid again as soon as it changes.
 */
export function useWeChatCode() {
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState(false);
  return {
    invalid,
    /** The value and change handler of the code's text field. */
    input: {
      value: code,
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
        setCode(event.target.value);
        setInvalid(false);
      },
    },
    parse(): WeChatCodeQuery | null {
      const parsed = wechatCodeQuery.safeParse({ code });
      setInvalid(!parsed.success);
      return parsed.success ? parsed.data : null;
    },
    /** Empties the field (`keepCode` leaves the text) and clears its error. */
    reset(keepCode = false) {
      if (!keepCode) setCode('');
      setInvalid(false);
    },
  };
}
