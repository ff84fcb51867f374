package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/suppress"
)

// list is every rule, in no particular order; the registry sorts by code.
var list = []*analyzer.Rule{
	InternalError,
	SyntaxError,
	MissingSemicolon,
	IncludeNotFound,
	IncludeCycle,
	UnreadableFile,
	NotRegularFile,
	FileTooLarge,
	TotalSizeLimit,
	BinaryFile,
	UnknownDirective,
	DirectiveNotAllowed,
	InvalidArguments,
	InvalidValue,
	DuplicateListen,
	DuplicateDefaultServer,
	ConflictingServerName,
	DuplicateDirective,
	SettingConflict,
	Deprecated,
	MapWithoutDefault,
	IfIsEvil,
	InvalidRegex,
	UnknownVariable,
	InvalidVariableName,
	RegexSyntax,
	UnknownZone,
	UnknownLogFormat,
	SSLCertificateMissing,
	MissingFile,
	HostNotFound,
	UnknownUser,
	UnsupportedByBuild,
	InvalidParameter,
	InvalidURL,
	InvalidCondition,
	LocationNesting,
	EmptyUpstream,
	InvalidEntry,
	InvalidStatus,
	InvalidZone,
	SSRF,
	HTTPSplitting,
	HostSpoofing,
	Origins,
	AliasTraversal,
	AddHeaderRedefinition,
	AddHeaderMultiline,
	ValidReferers,
	VersionDisclosure,
	WeakSSLTLS,
	AllowWithoutDeny,
	StatusPageExposed,
	ResolverExternal,
	ErrorLogOff,
	ProxyPassNormalized,
	ReturnBypassesAllowDeny,
	UnanchoredRegex,
	RegexReDoS,
	StaleDNSCache,
	AddHeaderContentType,
	AutoindexEnabled,
	CORSOriginReflection,
	DirectiveInheritance,
	AliasSlashMismatch,
	TryFilesWithProxy,
	FilesystemRootExposure,
	SSLECDHCurvePQ,
	SSLStaplingIneffective,
	CVEConfigPattern,
	NginxAdvisory,
	NonExpandingVariable,
	ImplicitDefaultServer,
	WorkerRlimitNofile,
	KeepaliveRequestsLow,
	WorkerProcessesUnset,
	RegexInPrefixLocation,
	RegexExactMatch,
	UpstreamKeepaliveUnused,
	QUICReuseport,
	BuiltinVariableRedefined,
	AccessListLogic,
	UnreachableLocation,
	HSTS,
	HTTP2MisdirectedRequest,
	RewriteBypassesAllowDeny,
	ListenPortAggregation,
	ListenSocketCount,
	ListenBindConflict,
	WorkerConnections,
	OpenFilesLimit,
	ServerNamesHash,
	StartupBudget,
	suppress.IgnoreWithoutReason,
	suppress.UnusedIgnore,
	suppress.InvalidIgnore,
}

var all = mustRegistry()

func mustRegistry() *analyzer.Registry {
	reg, err := analyzer.NewRegistry(list...)
	if err != nil {
		panic(err)
	}
	return reg
}

// All returns the registry of every rule.
func All() *analyzer.Registry { return all }
