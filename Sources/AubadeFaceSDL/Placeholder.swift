import CSDL2
enum AubadeFaceSDLPlaceholder {}
