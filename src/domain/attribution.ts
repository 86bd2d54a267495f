// Required source attribution, carried by every priced response (spec section 1).
export const ATTRIBUTION =
  "Article metadata from The GDELT Project (https://www.gdeltproject.org/), used with citation under its terms. " +
  "Each article belongs to its publisher; follow its url for the text.";
