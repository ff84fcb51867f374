# nginx-lint in a container: the static binary alone on distroless.
#
#   docker build -t nginx-lint .
#   docker run --rm -v "$PWD:/src" -w /src nginx-lint conf/
#
# The build stage compiles without cgo, so the binary needs no libc and
# runs on an image with nothing else in it.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/nginx-lint ./cmd/nginx-lint

# distroless/static: CA certificates, /etc/passwd with a nonroot user,
# no shell, no package manager.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/nginx-lint /nginx-lint
USER nonroot:nonroot
ENTRYPOINT ["/nginx-lint"]
