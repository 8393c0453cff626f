"""docker-compose.yml as Compose reads it: `docker-compose config` accepts it with each profile,
and the configuration it resolves (anchors merged, variables filled in) holds what an operator
relies on: health checks that mean ready, ports that do not clash, the reverse proxy's
X-Forwarded-For believed from the network's gateway, rotated logs, limits and hardening.

Compose checks the file without a Docker engine; Debian's docker-compose (1.29) is what
`python -m devtools test` installs. The health checks of PostgreSQL and Redis run here against
the local servers the suite uses."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from collections.abc import Sequence
from ipaddress import ip_address, ip_network
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.settings import Settings
from tests.support.machine_tools import machine_tool
from tests.support.paths import REPO

PROFILES = ("redis", "monitoring")
DOTENV = "POSTGRES_PASSWORD=compose0test0password\n"
DOCKERFILE = (REPO / "Dockerfile").read_text()
CONTAINER_TMP = "/tmp"  # noqa: S108 - a path inside the containers, not on this machine


def docker_compose() -> str:
    return machine_tool("docker-compose")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The compose file in a directory of its own, with a .env holding only the password the
    file requires (as an operator's first .env would)."""
    directory = tmp_path_factory.mktemp("compose")
    shutil.copy(REPO / "docker-compose.yml", directory)
    (directory / ".env").write_text(DOTENV)
    return directory


def compose(
    project: Path, *args: str, profiles: Sequence[str] = ()
) -> subprocess.CompletedProcess[str]:
    flags = [word for profile in profiles for word in ("--profile", profile)]
    return subprocess.run(  # noqa: S603 - docker-compose from PATH, on a copy of our file
        [docker_compose(), *flags, *args],
        cwd=project,
        env={"PATH": "/usr/bin:/bin", "HOME": str(project)},
        capture_output=True,
        text=True,
        timeout=120,  # a guard against a hang, not a timing assertion
        check=False,
    )


@pytest.fixture(scope="module")
def resolved(project: Path) -> dict[str, Any]:
    """The configuration Compose resolves with every profile on."""
    done = compose(project, "config", profiles=PROFILES)
    assert done.returncode == 0, done.stderr
    config: dict[str, Any] = yaml.safe_load(done.stdout)
    return config


@pytest.fixture(scope="module")
def services(resolved: dict[str, Any]) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = resolved["services"]
    return found


@pytest.mark.parametrize("profiles", [(), ("redis",), ("monitoring",), PROFILES])
def test_compose_accepts_the_file(project: Path, profiles: tuple[str, ...]) -> None:
    done = compose(project, "config", "-q", profiles=profiles)
    assert done.returncode == 0, done.stderr


def test_compose_refuses_to_start_without_the_postgres_password(tmp_path: Path) -> None:
    shutil.copy(REPO / "docker-compose.yml", tmp_path)
    (tmp_path / ".env").write_text("")
    done = compose(tmp_path, "config", "-q")
    assert done.returncode != 0
    assert "set POSTGRES_PASSWORD in .env" in done.stderr


def test_only_the_bot_and_postgres_start_without_a_profile(services: dict[str, Any]) -> None:
    profiles = {name: service.get("profiles", []) for name, service in services.items()}
    assert profiles == {
        "bot": [],
        "postgres": [],
        "redis": ["redis"],
        "prometheus": ["monitoring"],
        "grafana": ["monitoring"],
    }


# --- health checks -------------------------------------------------------------------------------


def healthcheck_shell(service: dict[str, Any]) -> str:
    """A service's health check as the shell line Docker runs inside the container."""
    test = service["healthcheck"]["test"]
    if test[0] == "CMD-SHELL":
        return str(test[1])
    assert test[0] == "CMD", test
    return shlex.join(test[1:])


def run_shell(line: str) -> int:
    return subprocess.run(  # noqa: S603 - the compose file's own health check line
        ["/bin/sh", "-c", line], capture_output=True, timeout=30, check=False
    ).returncode


def test_postgres_is_healthy_only_once_it_answers_over_tcp(services: dict[str, Any]) -> None:
    """pg_isready without -h asks the Unix socket, on which a fresh volume's first start answers
    while TCP, which the bot uses, is not listening yet."""
    postgres = services["postgres"]
    line = healthcheck_shell(postgres)
    words = shlex.split(line)
    assert words[0] == "pg_isready"
    assert words[words.index("-h") + 1] == "127.0.0.1"
    assert postgres["healthcheck"]["start_period"]
    # The same line against this machine's PostgreSQL (the suite's): ready; on a port where
    # nothing listens: not.
    assert run_shell(line) == 0
    assert run_shell(f"{line} -p 9") != 0
    assert services["bot"]["depends_on"]["postgres"]["condition"] == "service_healthy"


def test_redis_has_a_health_check_that_means_it_answers(services: dict[str, Any]) -> None:
    line = healthcheck_shell(services["redis"])
    assert run_shell(line) == 0  # this machine's Redis, the suite's
    assert run_shell(line.replace("redis-cli", "redis-cli -p 9", 1)) != 0


def test_the_bot_keeps_the_images_health_check(services: dict[str, Any]) -> None:
    assert "HEALTHCHECK " in DOCKERFILE
    assert "healthcheck" not in services["bot"]  # neither replaced nor disabled
    for name in ("postgres", "redis", "prometheus", "grafana"):
        assert not services[name]["healthcheck"].get("disable"), name


# --- ports ---------------------------------------------------------------------------------------


def published(service: dict[str, Any]) -> list[tuple[str, int, int]]:
    """(host address, host port, container port) of each published port."""
    found = []
    for port in service.get("ports", []):
        host_ip, host_port, target = str(port).split("/")[0].split(":")
        found.append((host_ip, int(host_port), int(target)))
    return found


def test_every_port_is_published_on_the_hosts_loopback_once(services: dict[str, Any]) -> None:
    ports = [port for service in services.values() for port in published(service)]
    assert all(host_ip == "127.0.0.1" for host_ip, _, _ in ports), ports
    host_ports = [host_port for _, host_port, _ in ports]
    assert len(host_ports) == len(set(host_ports)), host_ports


def test_the_bots_ports_are_its_listeners_and_not_prometheus(services: dict[str, Any]) -> None:
    bot = services["bot"]
    environment = bot["environment"]
    assert published(bot) == [
        ("127.0.0.1", 8080, int(environment["WEB_PORT"])),
        ("127.0.0.1", 9091, int(environment["OPERATOR_PORT"])),
    ]
    assert (environment["WEB_HOST"], environment["OPERATOR_HOST"]) == ("0.0.0.0", "0.0.0.0")
    # 9090 is Prometheus's: its service here, or one already on the host.
    assert published(services["prometheus"]) == [("127.0.0.1", 9090, 9090)]
    assert published(services["grafana"]) == [("127.0.0.1", 3000, 3000)]


def test_the_reverse_proxys_address_is_believed_from_the_networks_gateway(
    resolved: dict[str, Any], services: dict[str, Any]
) -> None:
    """A request to a published port reaches the container from the network's gateway (Docker's
    proxy): that address, and no other container's, is a trusted proxy."""
    [ipam] = resolved["networks"]["default"]["ipam"]["config"]
    subnet, gateway = ip_network(ipam["subnet"]), ip_address(ipam["gateway"])
    assert gateway in subnet
    value = services["bot"]["environment"]["WEB_TRUSTED_PROXIES"]
    trusted = Settings(_env_file=None, web_trusted_proxies=value).web_trusted_proxies
    assert any(gateway in network for network in trusted)
    another_container = next(host for host in subnet.hosts() if host != gateway)
    assert not any(another_container in network for network in trusted)


# --- logs, limits, hardening ---------------------------------------------------------------------


def test_every_service_rotates_its_log(services: dict[str, Any]) -> None:
    for name, service in services.items():
        logging = service["logging"]
        assert logging["driver"] == "json-file", name
        assert {"max-size", "max-file"} <= set(logging["options"]), name


def test_every_service_has_a_memory_limit(services: dict[str, Any]) -> None:
    for name, service in services.items():
        assert service.get("mem_limit"), f"{name} has no mem_limit"
        assert service.get("pids_limit"), f"{name} has no pids_limit"


def test_every_service_drops_its_capabilities_and_cannot_gain_privileges(
    services: dict[str, Any],
) -> None:
    for name, service in services.items():
        assert service["cap_drop"] == ["ALL"], name
        assert "no-new-privileges:true" in service["security_opt"], name
    # Only PostgreSQL's entrypoint needs some back: it sets its data directory's owner, then
    # switches to the postgres user.
    added = {name: service["cap_add"] for name, service in services.items() if "cap_add" in service}
    assert added == {"postgres": ["CHOWN", "DAC_OVERRIDE", "FOWNER", "SETGID", "SETUID"]}


def tmpfs_paths(service: dict[str, Any]) -> list[str]:
    return [entry.split(":")[0] for entry in service.get("tmpfs", [])]


def test_the_bots_file_system_is_read_only_but_where_it_writes(services: dict[str, Any]) -> None:
    bot = services["bot"]
    assert bot["read_only"] is True
    assert tmpfs_paths(bot) == [CONTAINER_TMP]
    # matplotlib's cache (the one thing the bot writes besides SQLite's /app/data volume).
    [mplconfigdir] = [
        word.split("=", 1)[1] for word in DOCKERFILE.split() if word.startswith("MPLCONFIGDIR=")
    ]
    assert Path(mplconfigdir).is_relative_to(CONTAINER_TMP)
    assert 'VOLUME ["/app/data"]' in DOCKERFILE
    for name in ("postgres", "redis", "prometheus"):
        assert services[name]["read_only"] is True, name
    assert set(tmpfs_paths(services["postgres"])) == {CONTAINER_TMP, "/var/run/postgresql"}


def test_every_image_is_pinned_to_a_version(services: dict[str, Any]) -> None:
    for name, service in services.items():
        if "build" in service:
            continue
        image, _, tag = service["image"].rpartition(":")
        assert image and tag and tag != "latest" and "/" not in tag, (name, service["image"])


# --- the monitoring profile ----------------------------------------------------------------------


def test_grafana_does_not_start_with_its_default_password(services: dict[str, Any]) -> None:
    """Its entrypoint refuses an empty GRAFANA_ADMIN_PASSWORD (Grafana would fall back to
    admin/admin), and otherwise hands over to the image's own (/run.sh, not on this machine)."""
    grafana = services["grafana"]
    assert grafana["environment"]["GF_SECURITY_ADMIN_PASSWORD"] == ""  # none in this .env
    shell, flag, script = grafana["entrypoint"]
    script = script.replace("$$", "$")  # Compose's escape for a literal $

    def entrypoint(password: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(  # noqa: S603 - the compose file's own entrypoint line
            [f"/bin/{shell}", flag, script],
            env={"PATH": "/usr/bin:/bin", "GF_SECURITY_ADMIN_PASSWORD": password},
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )

    refused = entrypoint("")
    assert refused.returncode == 1
    assert refused.stderr.strip() == "set GRAFANA_ADMIN_PASSWORD in .env"
    started = entrypoint("s3cret-enough")
    assert "/run.sh" in started.stderr and "GRAFANA_ADMIN_PASSWORD" not in started.stderr


def test_the_monitoring_services_mount_the_repositorys_files_read_only(
    project: Path, services: dict[str, Any]
) -> None:
    def binds(service: dict[str, Any]) -> dict[str, tuple[str, bool]]:
        """target -> (source, read-only) of each bind mount, in Compose 1's short form or
        Compose 2's long one."""
        found = {}
        for volume in service["volumes"]:
            if isinstance(volume, str):
                source, target, *mode = volume.split(":")
                if source.startswith("/"):
                    found[target] = (source, mode == ["ro"])
            elif volume["type"] == "bind":
                found[volume["target"]] = (volume["source"], volume.get("read_only", False))
        return found

    assert binds(services["prometheus"]) == {
        "/etc/prometheus": (str(project / "monitoring/prometheus"), True)
    }
    assert binds(services["grafana"]) == {
        "/etc/grafana/provisioning": (str(project / "monitoring/grafana/provisioning"), True),
        "/var/lib/grafana/dashboards": (str(project / "monitoring/grafana/dashboards"), True),
    }
