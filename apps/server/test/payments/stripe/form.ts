/**
 * Stripe's request bodies are `application/x-www-form-urlencoded` with bracketed keys
 * (`line_items[0][price_data][currency]=usd`, `enabled_events[0]=…`); this turns them back into
 * the nested object Stripe's API reads, objects with only numeric keys becoming arrays.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

export class FormError extends Error {}

const KEY = /^([^[\]]+)((?:\[[^[\]]*\])*)$/;

function keyPath(key: string): string[] {
  const match = KEY.exec(key);
  if (!match?.[1]) throw new FormError(`Invalid parameter name: ${key}`);
  return [match[1], ...[...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((part) => part[1] ?? '')];
}

function arrayify(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const entries = keys.map((key) => [key, arrayify(value[key] as FormValue)] as const);
  const numeric = keys.length > 0 && keys.every((key, index) => key === String(index));
  return numeric ? entries.map(([, item]) => item) : Object.fromEntries(entries);
}

export function decodeStripeForm(text: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = keyPath(key);
    let node: FormObject = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) {
        if (part in node) throw new FormError(`Parameter ${key} was given twice`);
        node[part] = value;
        return;
      }
      node[part] ??= {};
      const next = node[part];
      if (typeof next === 'string' || Array.isArray(next)) throw new FormError(`Invalid parameter name: ${key}`);
      node = next;
    });
  }
  return arrayify(root) as FormObject;
}

/** A nested object field, or undefined when absent or not an object. */
export function objectField(value: FormValue | undefined): FormObject | undefined {
  return value !== undefined && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}

export function stringField(value: FormValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
