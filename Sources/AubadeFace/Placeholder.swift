// Placeholder: replaced by the face module.
enum AubadeFacePlaceholder {}
