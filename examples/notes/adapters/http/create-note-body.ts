import { IsString, Length, MaxLength } from 'class-validator';
import { OptionalField } from '../../../../src/adapters/http/modules/http-kit';
import { NOTE_BODY_MAX, NOTE_TITLE_MAX } from '../../domain/note';

/** POST /api/v1/notes. Unknown fields are refused by name, like every body the service reads. */
export class CreateNoteBody {
  @IsString()
  @Length(1, NOTE_TITLE_MAX)
  title!: string;

  @OptionalField()
  @IsString()
  @MaxLength(NOTE_BODY_MAX)
  body?: string;
}
