// What the operations pages' forms share: reading a field, a select and a secret shown once, and
// an AppError's field errors placed beside the fields they are about.
import { AppError, renameFields } from '../kernel/errors.ts';
import { html, type Html } from '../tools/html.ts';

/** A form field as typed; absent is ''. */
export function field(form: URLSearchParams, name: string): string {
  return form.get(name) ?? '';
}

/** A field that must be one of `allowed`; 422 invalid_option naming the field otherwise. */
export function choice<T extends string>(form: URLSearchParams, name: string, allowed: readonly T[]): T {
  const value = field(form, name);
  const found = allowed.find((a) => a === value);
  if (found === undefined) throw new AppError(422, 'invalid_option', `${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return found;
}

/** A <select> of `options`, `selected` marked. */
export function select(name: string, options: readonly string[], selected: string, id = name): Html {
  return html`<select id="${id}" name="${name}">
    ${options.map((o) => html`<option value="${o}" ${o === selected ? html` selected` : null}>${o}</option>`)}
  </select>`;
}

/**
 * A secret shown once (a new API key, a new webhook secret): selectable text, and a copy button
 * that the script reveals (it needs JavaScript; the text can always be selected and copied).
 */
export function secretOnce(id: string, secret: string): Html {
  return html`<p><output id="${id}" class="secret" aria-label="the secret">${secret}</output></p>
    <p>
      <button type="button" class="secondary" data-copy="${id}" hidden>Copy</button>
      <span class="muted">Store it now: it is shown only once.</span>
    </p>`;
}

/** A 422 of the domain's validation: the form is shown again with it; anything else goes to the error page. */
export function isRefusal(error: unknown): error is AppError {
  return error instanceof AppError && error.status === 422;
}

/** A form's labels by field name, as its refusals name them. */
export type FieldLabels = Readonly<Record<string, string>>;

/**
 * A domain message in a form's words: each field it names (src/kernel/errors.ts fieldName) by its label
 * on the form, or by its bare name when the form has none.
 */
export function inFormWords(message: string, labels: FieldLabels = {}): string {
  return renameFields(message, (name) => labels[name] ?? name);
}

/** Field → message of a validation error (AppError.errors), for a form shown again with its errors. */
export function fieldErrors(error: unknown, labels: FieldLabels = {}): Map<string, string> {
  const out = new Map<string, string>();
  if (error instanceof AppError && error.errors) for (const e of error.errors) out.set(e.field, inFormWords(e.message, labels));
  return out;
}

/** The message under a field, if it has one. */
export function errorFor(errors: Map<string, string>, name: string): Html | null {
  const message = errors.get(name);
  return message === undefined ? null : html`<span class="bad" id="${name}-error">${message}</span>`;
}
