// Enrollment merge (docs/api.md#entry-submission): the first entry for a
// document creates the enrollment; later ones fill only fields still empty, silently keep stored
// values, and the campaign's requirements are checked on the merged result.
import type { Campaign, RequiredField } from '../campaigns/campaigns.ts';
import type { Ctx } from '../kernel/context.ts';
import { AppError, type FieldError } from '../kernel/errors.ts';
import type { Caller } from '../keys/keys.ts';
import { uuidv7 } from '../kernel/random.ts';
import {
  findEnrollmentByDocument,
  insertEnrollment,
  isEmailTaken,
  isPhoneTaken,
  updateEnrollmentProfile,
  type EnrollmentRow,
} from './enrollments.repo.ts';
import { PROFILE_FIELDS, type Submission } from './submission.ts';

const FIELD_PATH: Record<RequiredField, string> = {
  full_name: 'enrollment.full_name',
  email: 'enrollment.email',
  phone: 'enrollment.phone',
  birthdate: 'enrollment.birthdate',
  city: 'enrollment.address.city',
  state: 'enrollment.address.state',
};

/** Creates or merges the enrollment; call inside the entry's transaction. Returns the stored row. */
export function upsertEnrollment(ctx: Ctx, campaign: Campaign, caller: Caller, submission: Submission, now: string): EnrollmentRow {
  const livemode = caller.livemode ? 1 : 0;
  const { document, profile } = submission;
  if (document.type === 'cnpj' && !campaign.allow_companies) {
    throw new AppError(422, 'companies_not_allowed', 'This campaign does not accept company (CNPJ) participants.', [
      {
        field: 'enrollment.document_number',
        code: 'companies_not_allowed',
        message: 'CNPJ participants are not accepted by this campaign',
      },
    ]);
  }
  const stored = findEnrollmentByDocument(ctx.db, campaign.id, livemode, document.number);
  const merged: EnrollmentRow = stored
    ? { ...stored }
    : {
        id: uuidv7(ctx.random, ctx.clock.now()),
        campaign_id: campaign.id,
        livemode,
        document_type: document.type,
        document_number: document.number,
        full_name: null,
        email: null,
        phone: null,
        birthdate: null,
        address_line_1: null,
        address_line_2: null,
        neighborhood: null,
        city: null,
        state: null,
        zipcode: null,
        country: null,
        anonymized_at: null,
        created_at: now,
        updated_at: now,
      };
  const filled: string[] = [];
  for (const field of PROFILE_FIELDS) {
    const value = profile[field];
    if (value !== undefined && merged[field] === null) {
      merged[field] = value;
      filled.push(field);
    }
  }
  const missing: FieldError[] = campaign.required_fields
    .filter((field) => merged[field] === null)
    .map((field) => ({ field: FIELD_PATH[field], code: 'required', message: `${field} is required by this campaign` }));
  if (missing.length > 0) {
    throw new AppError(
      422,
      'missing_required_field',
      `Missing required enrollment field(s): ${missing.map((m) => m.field).join(', ')}.`,
      missing,
    );
  }
  // Only a value that is about to be stored can collide; an ignored differing value never does.
  const exceptId = stored ? stored.id : null;
  if (filled.includes('email') && isEmailTaken(ctx.db, campaign.id, livemode, merged.email!, exceptId)) {
    throw new AppError(422, 'email_taken', 'This email is already used by another participant in the campaign.', [
      { field: 'enrollment.email', code: 'email_taken', message: 'email already used by another participant' },
    ]);
  }
  if (filled.includes('phone') && isPhoneTaken(ctx.db, campaign.id, livemode, merged.phone!, exceptId)) {
    throw new AppError(422, 'phone_taken', 'This phone is already used by another participant in the campaign.', [
      { field: 'enrollment.phone', code: 'phone_taken', message: 'phone already used by another participant' },
    ]);
  }
  if (!stored) {
    insertEnrollment(ctx.db, merged);
  } else if (filled.length > 0) {
    merged.updated_at = now;
    updateEnrollmentProfile(ctx.db, merged);
  }
  return merged;
}
