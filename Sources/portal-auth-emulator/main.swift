import PortalAuth
