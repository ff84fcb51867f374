// Package atomicfile writes configuration files back to disk without
// damaging what surrounds them: the formatter's -w, suggested fixes and
// baseline files all write through WriteFile.
//
// A plain "write a temporary file and rename it over the path" breaks
// several things an nginx configuration tree relies on, so WriteFile:
//
//   - follows symbolic links (chains too) and writes the file they lead
//     to, so Debian's sites-enabled/x -> ../sites-available/x stays a
//     link; with Options.Root set, a link that leads outside that tree is
//     refused (ErrOutsideRoot), so a directory walk never writes a file
//     that was not named;
//   - keeps the file's mode, owner and group: the replacement is chowned
//     to the old owner (which needs root, or owning the file), and when
//     that is not possible, or the file has several hard links or extended
//     attributes (ACLs, SELinux labels), or its directory does not let us
//     create a file, the file is rewritten in place instead, after a backup copy, and read back
//     to check the write; a failed write is undone from the backup;
//   - refuses a read-only file (no write permission bits, or one the
//     caller may not write) unless Options.Force is set (ErrReadOnly);
//   - holds SIGINT and SIGTERM while it writes: a signal that arrives
//     then is delivered again once the temporary file is renamed or
//     removed, so an interrupted run never leaves one behind nor a
//     half-written file.
//
// WriteFiles writes several files as one transaction: all are checked
// (Options.Expect among them) before any is touched, all new contents are
// staged before any is renamed in, and a failure puts back the files
// already replaced; a signal while they are staged abandons it. A file
// that already holds what would be written counts as written.
package atomicfile
