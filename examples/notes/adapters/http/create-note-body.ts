import { IsString, Length, MaxLength } from 'class-validator';
import { Described, OptionalField, VisibleText } from 'portcullis';
import { NOTE_BODY_MAX, NOTE_TITLE_MAX } from '../../domain/note';

/**
 * POST /api/v1/notes. Unknown fields are refused by name, like every body the service reads. The
 * title is a name people read in a list, under the platform's visible-text rule; the body is free
 * text, where line breaks and tabs belong.
 */
export class CreateNoteBody {
  @IsString()
  @Length(1, NOTE_TITLE_MAX)
  @VisibleText()
  @Described(
    'Stored NFC-normalised, and its length counted in that form. Control characters (a line break too), invisible '
    + 'formatting characters and combining marks without a base character are refused (400 `title must not contain ...`), '
    + "as in the platform's names. The body may hold line breaks.",
  )
  title!: string;

  @OptionalField()
  @IsString()
  @MaxLength(NOTE_BODY_MAX)
  body?: string;
}
