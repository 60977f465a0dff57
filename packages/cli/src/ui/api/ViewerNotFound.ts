// What the viewer answers 404 with: a run, execution or evidence the database does not hold.

/** A viewer request named something the results database does not hold. */
export class ViewerNotFound extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ViewerNotFound';
  }
}

/** A viewer request whose parameter is not one the API accepts (answered 400). */
export class ViewerBadRequest extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ViewerBadRequest';
  }
}
