#!/bin/sh
# package-target.sh GOOS GOARCH BINARY OUTDIR: packages the platform-specific
# .vsix of the nginx-lint build BINARY (a goreleaser build for GOOS/GOARCH)
# into OUTDIR, as nginx-lint-<target>.vsix. VS Code installs the .vsix whose
# target matches the editor's platform, and the extension starts the binary
# it carries when nginx-lint.path is not set, so nothing else needs
# installing. The universal .vsix (`vsce package`) carries no binary.
set -eu
if [ $# -ne 4 ]; then
	echo "usage: $0 GOOS GOARCH BINARY OUTDIR" >&2
	exit 2
fi
goos=$1 goarch=$2 binary=$3 out=$4
case $goos in
linux | darwin) os=$goos exe=nginx-lint ;;
windows) os=win32 exe=nginx-lint.exe ;;
*) echo "$0: no VS Code target for GOOS $goos" >&2; exit 2 ;;
esac
case $goarch in
amd64) arch=x64 ;;
arm64) arch=arm64 ;;
*) echo "$0: no VS Code target for GOARCH $goarch" >&2; exit 2 ;;
esac
target=$os-$arch
dir=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
# The package is built in a copy of the extension, so that runs for
# several targets can go side by side (goreleaser's post-build hooks) and
# the universal .vsix never picks up a binary left behind.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -C "$dir" --exclude=./node_modules --exclude=./bin --exclude=./dist -cf - . | tar -C "$work" -xf -
ln -s "$dir/node_modules" "$work/node_modules"
mkdir "$work/bin"
cp "$binary" "$work/bin/$exe"
chmod 0755 "$work/bin/$exe"
cd "$work"
npx --no-install vsce package --target "$target" --out "$out/nginx-lint-$target.vsix" </dev/null
