import { IsString, Length, MaxLength } from 'class-validator';
import { OptionalField, VisibleText } from '../../../../src/adapters/http/modules/http-kit';
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
  title!: string;

  @OptionalField()
  @IsString()
  @MaxLength(NOTE_BODY_MAX)
  body?: string;
}
