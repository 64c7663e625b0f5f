"""Reading what authors write: the YAML files, a fixture in either form, a lesson's front
matter and the book's track. Every mistake is a ``macros.errors.SourceError`` naming its file."""
