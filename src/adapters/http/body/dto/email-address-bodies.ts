import { IsString, MaxLength } from 'class-validator';
import { Described } from './described';

/** The token's shape is the use-case's to judge: any other string is answered as an unknown token, with the same message. */
export class EmailLinkTokenBody {
  @IsString()
  @MaxLength(256)
  @Described('The 64 hexadecimal characters of the link\'s `token`.', {
    examples: ['9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
  })
  token!: string;
}
